#if canImport(Glibc)
import Glibc
#endif

/// Blocks the given signals for the whole process (call before starting threads) and lets the
/// main thread wait for one of them, so shutdown runs as ordinary code, not in a handler.
struct SignalWaiter {
    private var set = sigset_t()

    init(_ signals: Int32...) {
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits until one of the signals arrives and returns it.
    func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}
