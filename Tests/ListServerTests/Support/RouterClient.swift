import HTTPServer
@testable import list_server

/// Sends requests to a router in process and reads the answers as text.
struct RouterClient {
    let context: ServerContext
    let router: Router

    init(context: ServerContext) {
        self.context = context
        self.router = makeRouter(context: context)
    }

    struct Answer {
        let response: Response
        let body: String
        var status: Int { response.status.code }
        func header(_ name: String) -> String? { response.headers[name] }
    }

    @discardableResult
    func send(_ method: HTTPMethod, _ target: String, _ body: String = "", headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        let response = router.respond(to: try Request(method: method, target: target, headers: headers, body: Array(body.utf8)))
            .resolved()
        return Answer(response: response, body: String(decoding: response.bodyBytes ?? [], as: UTF8.self))
    }

    func get(_ target: String, accept: String? = nil) throws -> Answer {
        var headers = HTTPHeaders()
        if let accept { headers["Accept"] = accept }
        return try send(.get, target, headers: headers)
    }

    @discardableResult
    func put(_ target: String, json: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try send(.put, target, json, headers: headers)
    }

    @discardableResult
    func post(_ target: String, json: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try send(.post, target, json, headers: headers)
    }

    @discardableResult
    func patch(_ target: String, _ patch: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        var headers = headers
        headers["Content-Type"] = "application/json-patch+json"
        return try send(.patch, target, patch, headers: headers)
    }
}
