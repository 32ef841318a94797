/// Every default and limit of the server, in one place: the command's help and its settings,
/// and the types that use them, read them from here.
public enum ServerDefaults {
    // MARK: Where and how to listen

    public static let host = "127.0.0.1"
    public static let port = 8080
    /// The SQLite file (`--db`).
    public static let database = "list-server.sqlite"
    /// Bytes kept beside the SQLite file so that lists can be deleted on a full disk (`--disk-reserve`).
    public static let diskReserve = 16 << 20

    // MARK: Sizes

    /// Largest request body, in bytes (`--max-body`).
    public static let maxBodyBytes = 8 * 1024 * 1024
    /// Most lists the server holds (`--max-lists`).
    public static let maxLists = 10_000
    /// Most rows one list holds (`--max-rows`).
    public static let maxRows = 1_000_000
    /// Most open `/events` streams (`--max-subscribers`).
    public static let maxSubscribers = 20_000
    /// Most connections open at once, streams included (`--max-connections`).
    public static let maxConnections = 20_000
    /// Most connections from one client address when not bound to loopback (`--max-connections-per-address`).
    public static let maxConnectionsPerAddress = 256

    // MARK: Deadlines

    /// Seconds a request head may take (`--header-timeout`).
    public static let headerTimeoutSeconds = 10.0
    /// Seconds a request body gets before the minimum rate applies (`--body-timeout`).
    public static let bodyTimeoutSeconds = 10.0
    /// Bytes per second a body must average after its grace time (`--body-min-rate`).
    public static let bodyMinimumRate = 1024
    /// Seconds a live subscriber may stay too far behind before it is disconnected (`--stale-timeout`).
    public static let staleTimeoutSeconds = 30.0
    /// Seconds a write may wait for its list in all (`--write-timeout`): behind other writers of
    /// the list in this server, for a pooled connection, and for the store's locks (PostgreSQL's
    /// `lock_timeout`, SQLite's busy timeout); then 503 with `Retry-After`.
    public static let writeTimeoutSeconds = 10.0

    // MARK: Inside

    /// Writes kept per list in the store's change log, from which live streams resume.
    public static let changeLogLimit = 1_000

    /// Views (sorted, filtered, searched) of one list kept per version, and live views kept per
    /// list (`--max-views`, which sets the latter).
    public static let maxViews = 64

    /// Most writes waiting for one list in an instance (behind the one being written); more get
    /// 503 at once, so that writers piling onto a list held by a lock cannot take every handler
    /// thread from writes to other lists.
    public static let maxQueuedWritersPerList = 32

    /// Most threads running write handlers at once (`HandlerThreads`); more handlers queue.
    /// A handler waiting for its list holds one, for at most `--write-timeout`.
    public static let maxHandlerThreads = 512

    /// From this many rows on, an answer that serializes a whole list, or reads a view of it not
    /// built yet, is made off the connection's thread (`Response.offThread`), so other
    /// connections are not held up; such a view's first rows are then read from the list at once
    /// (no sort of every row: `viewHeadRows`), and the view built in the background only for a
    /// reader who pages past half of them.
    public static let offThreadRows = 20_000

    /// How many of a view's first rows such a first read keeps (at least the page's and one
    /// more), so that the pages after the first one among them are answered while the view builds.
    public static let viewHeadRows = 1_000

    /// About how many bytes of heap a view's sort frees per row of its list (its rows' sort
    /// values and orders), counted towards the next trim (`HeapTrim.afterFreeing`).
    public static let sortBytesFreedPerRow = 32

    /// Most views waiting to be built in the background (one is built at a time); a view not
    /// built there is built by the read that needs it.
    public static let maxPendingViewBuilds = 8

    /// How long a read waits for a view another is building before building its own (seconds).
    public static let viewBuildWaitSeconds = 10

    /// Most reads of views not built yet on large lists running at once (off the connections'
    /// threads: each may sort a million rows into tens of MB); more wait up to
    /// `viewBuildWaitSeconds` for a turn, then get 503 with `Retry-After`.
    public static let maxConcurrentViewReads = 2
}
