import Foundation
import HTTPServer

/// gzip cost on real answers: every file in `$GZIP_BENCH_DIR` (scripts/bench/gzip.sh fills it
/// with the server's identity answers), compressed by the server's `Gzip.compress` at levels 1,
/// 6 (what the server uses) and 9. Prints size, compressed size and the median thread-CPU time.
func runGzipBenchmarks() {
    guard let directory = ProcessInfo.processInfo.environment["GZIP_BENCH_DIR"],
        let names = try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    else {
        print("set GZIP_BENCH_DIR to a folder of answers (scripts/bench/gzip.sh does)")
        return
    }
    print("answer                     bytes     level 1                level 6 (server)       level 9")
    for name in names {
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
        let bytes = [UInt8](data)
        var line = name.padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "%9d", bytes.count)
        for level: Int32 in [1, 6, 9] {
            var size = 0
            let seconds = medianThreadCPUSeconds(iterations: bytes.count > 100_000 ? 11 : 101) {
                let compressed = Gzip.compress(bytes, level: level)
                size = compressed.count
                blackHole(compressed)
            }
            line += String(format: "   %8d %9.3f ms", size, seconds * 1000)
        }
        print(line)
    }
}
