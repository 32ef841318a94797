/// Why a view's parameters were rejected: which parameter and what is wrong with it.
///
/// `description` reads `filter.pop: "ten" is not a JSON number (column "pop" holds numbers)`.
/// The server answers 400 problem+json naming `parameter`.
public struct ListQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending query parameter as the request named it: `sort`, `sort_desc`, `q`,
    /// `filter.pop`.
    public var parameter: String
    /// What is wrong, in a sentence without the parameter.
    public var message: String

    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }

    public var description: String { "\(parameter): \(message)" }
}
