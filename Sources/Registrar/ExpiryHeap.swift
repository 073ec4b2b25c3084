import Foundation
import Model

/// A binary min-heap of binding expiry times, so that the expiry sweep looks
/// only at bindings that are due instead of scanning the whole location table.
///
/// Entries are never updated in place: a refresh pushes a new entry and the
/// old one becomes stale. The owner recognises a stale entry when it pops it
/// (the binding is gone or now expires at another time) and skips it.
struct ExpiryHeap {
    struct Entry {
        var expiresAt: Date
        var aor: String
        var key: BindingKey
    }

    private(set) var entries: [Entry] = []

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The earliest expiry, O(1).
    var min: Entry? { entries.first }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        siftUp(from: entries.count - 1)
    }

    /// Removes and returns the earliest entry, O(log n).
    mutating func popMin() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()
        if !entries.isEmpty { siftDown(from: 0) }
        return top
    }

    /// Replaces the contents, O(n).
    mutating func rebuild(_ newEntries: [Entry]) {
        entries = newEntries
        var index = entries.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].expiresAt < entries[parent].expiresAt else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        let n = entries.count
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < n && entries[left].expiresAt < entries[smallest].expiresAt { smallest = left }
            if right < n && entries[right].expiresAt < entries[smallest].expiresAt { smallest = right }
            if smallest == parent { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
