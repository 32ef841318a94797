import HTTPServer
import ListService

/// The server's streaming response is what a live subscriber writes to: the glue that lets the
/// hub (which never imports `HTTPServer`) hold one.
extension ResponseStream: SubscriberStream {}
