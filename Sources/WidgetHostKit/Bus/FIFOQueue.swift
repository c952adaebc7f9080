/// A first-in, first-out queue whose `append` and `popFirst` cost O(1)
/// (amortized): taking from the front moves a head index instead of
/// shifting every element behind it, as `Array.removeFirst` would, and the
/// taken slots are reclaimed once they make up half the storage, so a queue
/// that never empties does not grow without bound.
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}
