/// A least-recently-used cache as an actor: many tasks may share it; `get` and `put` are O(1).
///
/// It holds at most `capacity` entries; putting a new key into a full cache evicts the least
/// recently used one (and returns it). `get` counts as a use; `peek` does not.
///
/// ```swift
/// let cache = LRUCache<String, UserProfile>(capacity: 256)
/// await cache.put("octocat", profile)
/// let hit = await cache.get("octocat")
/// ```
public actor LRUCache<Key: Hashable & Sendable, Value: Sendable> {
    @usableFromInline var list: LRUList<Key, Value>

    /// A cache of at most `capacity` entries (a capacity below 1 is taken as 1).
    public init(capacity: Int) {
        list = LRUList(capacity: capacity)
    }

    public var capacity: Int { list.capacity }
    public var count: Int { list.count }

    // `@inlinable`: a generic type is only fast once specialised for its key and value types, and
    // other modules (the benchmark) can only specialise what they can see.

    /// The value for `key`, which becomes the most recently used; `nil` on a miss.
    @inlinable
    public func get(_ key: Key) -> Value? { list.get(key) }

    /// The value for `key`, without changing the order.
    @inlinable
    public func peek(_ key: Key) -> Value? { list.peek(key) }

    /// Inserts or replaces the value for `key` (now the most recently used); returns the entry it
    /// evicted to make room, if any.
    @inlinable @discardableResult
    public func put(_ key: Key, _ value: Value) -> (key: Key, value: Value)? { list.put(key, value) }

    /// Removes `key`; returns its value if it was there.
    @inlinable @discardableResult
    public func removeValue(forKey key: Key) -> Value? { list.removeValue(forKey: key) }

    public func removeAll() { list.removeAll() }

    /// The keys from the most to the least recently used (O(n), for tests and diagnostics).
    public var keysByRecency: [Key] { list.keysByRecency }
}

/// The storage behind ``LRUCache``: a dictionary from key to slot, and a doubly linked list of
/// slots (most recently used at the head) threaded through one contiguous array by index.
///
/// Every operation is O(1): a dictionary lookup plus a constant number of link updates. Slots are
/// kept dense: a full cache reuses the evicted tail's slot, and a removal moves the last slot into
/// the hole. Indices instead of class nodes mean no reference counting and no retain cycles.
/// A value type, not thread-safe by itself: ``LRUCache`` is the shared, actor-isolated form.
public struct LRUList<Key: Hashable, Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var previous: Int
        @usableFromInline var next: Int

        @inlinable
        init(key: Key, value: Value, previous: Int, next: Int) {
            self.key = key
            self.value = value
            self.previous = previous
            self.next = next
        }
    }

    @inlinable static var none: Int { -1 }

    public let capacity: Int
    @usableFromInline var entries: ContiguousArray<Entry> = []
    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var head = -1
    @usableFromInline var tail = -1

    /// An empty list of at most `capacity` entries (a capacity below 1 is taken as 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        let reserved = min(self.capacity, 1 << 12)
        entries.reserveCapacity(reserved)
        slots.reserveCapacity(reserved)
    }

    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    @inlinable
    public mutating func get(_ key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return entries[slot].value
    }

    @inlinable
    public func peek(_ key: Key) -> Value? {
        slots[key].map { entries[$0].value }
    }

    @inlinable @discardableResult
    public mutating func put(_ key: Key, _ value: Value) -> (key: Key, value: Value)? {
        if let slot = slots[key] {
            entries[slot].value = value
            moveToFront(slot)
            return nil
        }
        if entries.count < capacity {
            let slot = entries.count
            entries.append(Entry(key: key, value: value, previous: Self.none, next: Self.none))
            slots[key] = slot
            linkAtFront(slot)
            return nil
        }
        // Full: the least recently used entry makes room, and its slot is reused.
        let slot = tail
        let evicted = entries[slot]
        unlink(slot)
        slots.removeValue(forKey: evicted.key)
        entries[slot] = Entry(key: key, value: value, previous: Self.none, next: Self.none)
        slots[key] = slot
        linkAtFront(slot)
        return (evicted.key, evicted.value)
    }

    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        unlink(slot)
        let removed = entries[slot].value
        let last = entries.count - 1
        if slot != last {
            // Move the last slot into the hole and repoint its neighbours and its key.
            let moved = entries[last]
            entries[slot] = moved
            slots[moved.key] = slot
            if moved.previous == Self.none { head = slot } else { entries[moved.previous].next = slot }
            if moved.next == Self.none { tail = slot } else { entries[moved.next].previous = slot }
        }
        entries.removeLast()
        return removed
    }

    @inlinable
    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        head = Self.none
        tail = Self.none
    }

    public var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(entries.count)
        var slot = head
        while slot != Self.none {
            keys.append(entries[slot].key)
            slot = entries[slot].next
        }
        return keys
    }

    // MARK: Links

    @inlinable
    mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let previous = entries[slot].previous
        let next = entries[slot].next
        if previous == Self.none { head = next } else { entries[previous].next = next }
        if next == Self.none { tail = previous } else { entries[next].previous = previous }
        entries[slot].previous = Self.none
        entries[slot].next = Self.none
    }

    @inlinable
    mutating func linkAtFront(_ slot: Int) {
        entries[slot].previous = Self.none
        entries[slot].next = head
        if head != Self.none { entries[head].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }
}

extension LRUList: Sendable where Key: Sendable, Value: Sendable {}
extension LRUList.Entry: Sendable where Key: Sendable, Value: Sendable {}
