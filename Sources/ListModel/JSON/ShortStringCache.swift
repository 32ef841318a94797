/// Remembers recently parsed short ASCII strings so that a repeated member name or value
/// ("key", "cells", "text", …) is copied from the cache instead of being built again.
///
/// Direct-mapped on the string's bytes: a hit compares two words and a length, a miss builds the
/// string and replaces the slot. Only strings of at most 15 bytes are cached; Swift keeps those
/// inline, so copies cost no allocation.
///
/// The owner calls ``deallocate()`` once, when done (the parser does so in its `deinit`).
struct ShortStringCache {
    private struct Slot {
        var head: UInt64
        var tail: UInt64
        var length: Int
        var string: String
    }

    private static let slotCount = 512
    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(head: 0, tail: 0, length: -1, string: ""), count: Self.slotCount)
    }

    func deallocate() {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    /// The ASCII string of the `length` (at most 15) bytes at `start`; the 16 bytes from `start`
    /// must be readable.
    @inline(__always)
    func string(at start: UnsafePointer<UInt8>, length: Int) -> String {
        let raw = UnsafeRawPointer(start)
        let head = raw.loadUnaligned(as: UInt64.self) & Self.mask(length)
        let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & Self.mask(length &- 8)
        let hash = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: length)
        let slot = slots + Int(truncatingIfNeeded: hash >> 55)  // the top 9 bits: 0..<512
        if slot.pointee.length == length && slot.pointee.head == head && slot.pointee.tail == tail {
            return slot.pointee.string
        }
        let string = String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
        slot.pointee = Slot(head: head, tail: tail, length: length, string: string)
        return string
    }

    /// A mask of the low `count` bytes of a word (all of it from 8, none below 1).
    @inline(__always)
    private static func mask(_ count: Int) -> UInt64 {
        if count >= 8 { return ~0 }
        if count <= 0 { return 0 }
        return (1 &<< UInt64(count &* 8)) &- 1
    }
}
