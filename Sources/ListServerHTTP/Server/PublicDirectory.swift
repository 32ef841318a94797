import Foundation
import ListService

/// Finds the folder of static client files served under /assets/.
package enum PublicDirectory {
    /// `explicit` when given (it must exist); otherwise the first `Public/` found beside a
    /// `Package.swift` in a parent of the executable (`.build/release/list-server`), then in the
    /// current directory or its parents, then in the source checkout this binary was built from.
    package static func locate(explicit: String?) throws -> String {
        let files = FileManager.default
        if let explicit {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: explicit, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PublicDirectoryError(message: "--public \(explicit): no such directory")
            }
            return explicit
        }
        let executable = (try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let starts = [
            URL(fileURLWithPath: executable).deletingLastPathComponent(),
            URL(fileURLWithPath: files.currentDirectoryPath),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent(),
        ]
        for start in starts {
            if let found = packagePublic(above: start) { return found.path }
        }
        throw PublicDirectoryError(message: "cannot find the package's Public/ folder; pass --public DIR")
    }

    /// The `Public/` folder of the nearest parent of `start` (itself included) holding `Package.swift`.
    package static func packagePublic(above start: URL) -> URL? {
        var directory = start.standardizedFileURL
        while true {
            let publicFolder = directory.appendingPathComponent("Public")
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: publicFolder.path)
            {
                return publicFolder
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }
}

package struct PublicDirectoryError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
