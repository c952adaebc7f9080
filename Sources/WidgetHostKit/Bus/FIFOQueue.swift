/// A first-in, first-out queue whose `append` and `popFirst` cost O(1)
/// (amortized): a ring over slots that are reused, so taking from the front
/// neither shifts the elements behind it (`Array.removeFirst`) nor empties
/// the storage when the queue runs dry, and an element is moved out of its
/// slot, not copied and then destroyed. It grows only when every slot is
/// full, so a queue that never empties holds at most twice its peak.
struct FIFOQueue<Element> {
    private var slots: [Element?] = []
    /// The slot of the first element.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        var tail = head + count
        if tail >= slots.count { tail -= slots.count }
        slots[tail] = element
        count += 1
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count { head = 0 }
        count -= 1
        return element
    }

    /// Twice the slots, the elements moved to the front in order.
    private mutating func grow() {
        var grown = [Element?]()
        grown.reserveCapacity(max(4, 2 * slots.count))
        for offset in 0..<count {
            var index = head + offset
            if index >= slots.count { index -= slots.count }
            grown.append(slots[index].take())
        }
        grown.append(contentsOf: repeatElement(nil, count: grown.capacity - grown.count))
        slots = grown
        head = 0
    }
}
