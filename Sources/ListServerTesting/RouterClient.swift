import HTTPServer
import ListServerHTTP
import ListService

/// Sends requests to a router in process and reads the answers as text.
package struct RouterClient {
    package let context: ServerContext
    package let router: Router

    package init(context: ServerContext) {
        self.context = context
        self.router = makeRouter(context: context)
    }

    package struct Answer {
        package let response: Response
        package let body: String
        package var status: Int { response.status.code }
        package func header(_ name: String) -> String? { response.headers[name] }
    }

    @discardableResult
    package func send(_ method: HTTPMethod, _ target: String, _ body: String = "", headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        let request = try Request(method: method, target: target, headers: headers, body: Array(body.utf8))
        // As the server answers: a 200 whose ETag If-None-Match names becomes its 304.
        let response = HTTPServer.notModified(router.respond(to: request).resolved(), method: method, requestHeaders: headers)
        return Answer(response: response, body: String(decoding: response.bodyBytes ?? [], as: UTF8.self))
    }

    package func get(_ target: String, accept: String? = nil) throws -> Answer {
        var headers = HTTPHeaders()
        if let accept { headers["Accept"] = accept }
        return try send(.get, target, headers: headers)
    }

    @discardableResult
    package func put(_ target: String, json: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try send(.put, target, json, headers: headers)
    }

    @discardableResult
    package func post(_ target: String, json: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try send(.post, target, json, headers: headers)
    }

    @discardableResult
    package func patch(_ target: String, _ patch: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Answer {
        var headers = headers
        headers["Content-Type"] = "application/json-patch+json"
        return try send(.patch, target, patch, headers: headers)
    }
}
