/// Appends HTML to a byte buffer, escaping every untrusted string it is given.
///
/// Markup comes in as `StaticString` (`raw`), so only text written in source code can become
/// tags; strings from a document go through `text`, `attribute` or `url`, which escape them.
/// Escaping is the same in text and in double-quoted attribute values:
/// `&` `<` `>` `"` `'` become references, CR becomes `&#13;` (so a key survives the parser's
/// newline normalisation), U+2028/U+2029 become `&#x2028;`/`&#x2029;`, and NUL becomes U+FFFD
/// (the HTML parser would turn it into U+FFFD anyway, or drop it).
///
/// The writer writes into a growable buffer through a raw pointer (appending to an `[UInt8]`
/// piece by piece measured 4x slower); it cannot be copied, only passed `inout`.
public struct HTMLWriter: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Whether `base` was allocated by this writer (else it is an array's storage, see `render`).
    private var ownsBase: Bool
    /// The number of bytes written so far.
    public internal(set) var count: Int

    /// Creates an empty writer with room for `capacity` bytes (it grows as needed).
    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        ownsBase = true
        count = 0
    }

    /// A writer over memory it does not own, until it outgrows it.
    private init(borrowing base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
        ownsBase = false
        count = 0
    }

    deinit { if ownsBase { base.deallocate() } }

    /// A copy of the bytes written so far: UTF-8 HTML.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written, ending the writer.
    consuming func finish() -> [UInt8] { bytes }

    /// Runs `body` with a writer that writes straight into the storage of the returned array,
    /// so a rendering of `capacity` bytes or less is never copied (one that outgrows it is, once).
    static func render(capacity: Int, _ body: (inout HTMLWriter) -> Void) -> [UInt8] {
        var overflow: [UInt8]?
        let capacity = max(capacity, 64)
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var writer = HTMLWriter(borrowing: buffer.baseAddress!, capacity: capacity)
            body(&writer)
            if writer.ownsBase {
                overflow = writer.finish()
                initialized = 0
            } else {
                initialized = writer.count
            }
        }
        return overflow ?? bytes
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsBase { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBase = true
    }

    /// Appends one byte.
    @inline(__always)
    mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    /// Appends bytes as they are.
    @inline(__always)
    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        reserve(buffer.count)
        (base + count).update(from: source, count: buffer.count)
        count += buffer.count
    }

    /// Appends trusted markup written in source code, as is.
    @inline(__always)
    public mutating func raw(_ markup: StaticString) {
        let length = markup.utf8CodeUnitCount
        reserve(length)
        HTMLWriter.copy(markup.utf8Start, to: base + count, count: length)
        count += length
    }

    /// Copies bytes; short copies (most markup) as overlapping 8-byte words, without a call.
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        if count >= 8 && count <= 16 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count < 4 {
            for offset in 0..<count { destination[offset] = source[offset] }
        } else {
            destination.update(from: source, count: count)
        }
    }

    /// Appends a string as escaped text content.
    @inline(__always)
    public mutating func text(_ string: String) {
        escape(string)
    }

    /// Appends ` name="value"` with the value escaped.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        byte(0x20)
        raw(name)
        raw("=\"")
        escape(value)
        byte(0x22)
    }

    /// Appends ` name="url"` when `url` is safe to follow (see `HTMLWriter.isSafeURL`);
    /// otherwise appends nothing and returns false.
    @discardableResult
    public mutating func urlAttribute(_ name: StaticString, _ url: String) -> Bool {
        guard HTMLWriter.isSafeURL(url) else { return false }
        attribute(name, url)
        return true
    }

    /// Appends a number formatted the way number cells show it (see `formatNumber`).
    public mutating func number(_ value: Double) {
        appendNumber(value)
    }

    /// Appends trusted markup held in a `String`: the caller vouches that it is valid, safe HTML.
    public mutating func unsafeRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { append($0) }
    }

    /// Appends an ASCII decimal integer without grouping.
    mutating func decimal(_ value: Int) {
        if value < 0 { byte(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var used = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - used] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                used += 1
            } while magnitude > 0
            append(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[(24 - used)...]))
        }
    }
}
