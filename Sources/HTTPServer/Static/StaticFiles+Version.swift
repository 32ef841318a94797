import Foundation

extension StaticFiles {
    /// A short name for the content of every file below the root as it is now (16 hex digits of
    /// a 64-bit FNV-1a over each file's relative path and bytes, in path order): pages link their
    /// assets under it, so that browsers may keep them for good (`immutable`) and still get new
    /// files when they change. Computed once at start; files changed while the server runs keep
    /// the old name until the next start.
    public func contentVersion() -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        let base = URL(fileURLWithPath: root)
        let paths = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
        for path in paths where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let url = base.appendingPathComponent(path)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let data = try? Data(contentsOf: url)
            else { continue }
            mix(path.utf8)
            mix([0])
            mix(data)
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
