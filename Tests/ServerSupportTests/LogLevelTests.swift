import Testing

@testable import ServerSupport

/// `Log.level` is process-wide, so the tests that change it run one at a time and put it back.
@Suite("Log levels", .serialized)
struct LogLevelTests {
    @Test func namesRoundTripAndUnknownNamesAreRefused() {
        for level in Log.Level.allCases {
            #expect(Log.Level(name: level.name) == level)
        }
        #expect(Log.Level(name: "verbose") == nil)
        #expect(Log.Level(name: "INFO") == nil)
        #expect(Log.Level.allCases == [.debug, .info, .warning, .error])
    }

    @Test func linesAboveInfoNameTheirLevel() {
        #expect(Log.text(.info, "list-server ready") == "list-server ready")
        #expect(Log.text(.warning, "store unavailable: x") == "warning: store unavailable: x")
        #expect(Log.text(.error, "GET /x failed") == "error: GET /x failed")
        #expect(Log.text(.debug, "d") == "debug: d")
    }

    @Test func linesBelowTheLevelAreNeitherWrittenNorBuilt() {
        let saved = Log.level
        defer { Log.level = saved }
        Log.level = .error
        var built = 0
        func message() -> String {
            built += 1
            return "built"
        }
        Log.debug(message())
        Log.info(message())
        Log.warning(message())
        #expect(built == 0)
        #expect(!Log.isEnabled(.warning) && Log.isEnabled(.error))
        Log.level = .debug
        #expect(Log.isEnabled(.debug))
    }

    @Test func infoIsTheDefault() {
        #expect(Log.level == .info)
    }
}
