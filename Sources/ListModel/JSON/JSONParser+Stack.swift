/// A growable stack of parsed values that hands out its top items as an exact-size array.
///
/// The items are moved, not copied, into the array, so parsing a container costs one allocation
/// and no reference-count traffic.
struct ParseStack<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The item at `index` (0 is the bottom).
    subscript(index: Int) -> Element {
        _read { yield storage[index] }
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: consume element)
        count += 1
    }

    /// Removes the items from `first` to the top and returns them in order.
    mutating func popArray(from first: Int) -> [Element] {
        let n = count - first
        let source = storage + first
        let result = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: n)
            initialized = n
        }
        count = first
        return result
    }

    /// Removes the items from `first` to the top, handing them to `body`, which must move every
    /// one of them out (they count as uninitialized afterwards).
    mutating func popMoving<R>(from first: Int, _ body: (UnsafeMutablePointer<Element>, Int) -> R) -> R {
        let n = count - first
        count = first
        return body(storage + first, n)
    }

    /// Removes the items from `first` to the top.
    mutating func popAll(from first: Int) {
        (storage + first).deinitialize(count: count - first)
        count = first
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }
}
