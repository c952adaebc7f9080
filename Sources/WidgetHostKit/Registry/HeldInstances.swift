/// The instances the application and cached scopes hold, each boxed at its
/// type (`HeldValue`), found by the type alone: the
/// unnamed instances in one such dictionary and each type's named ones in
/// another, as a short list. A type is registered under a handful of names,
/// and comparing a short name (a small string compares as two words) costs
/// less than hashing it; a type held under very many names pays a
/// comparison per name. Inlinable, as `Registry.resolve` is, so that the
/// caller's resolve costs no call between the lock and the cast.
@usableFromInline
struct HeldInstances {
    @usableFromInline
    var unnamed: [ObjectIdentifier: HeldInstance] = [:]
    @usableFromInline
    var named: [ObjectIdentifier: Named] = [:]

    /// Names and instances in two arrays, not one of pairs: reading a pair
    /// copies both, where a lookup compares names and copies one instance.
    @usableFromInline
    struct Named {
        @usableFromInline
        var names: [String] = []
        @usableFromInline
        var instances: [HeldInstance] = []
    }

    @inlinable @inline(__always)
    func instance(for key: Key) -> HeldInstance? {
        guard let name = key.name else { return unnamed[key.type] }
        guard let list = named[key.type], let index = list.names.firstIndex(of: name) else { return nil }
        return list.instances[index]
    }

    subscript(key: Key) -> HeldInstance? {
        get { instance(for: key) }
        set {
            guard let name = key.name else {
                unnamed[key.type] = newValue
                return
            }
            var list = named.removeValue(forKey: key.type) ?? Named()
            if let index = list.names.firstIndex(of: name) {
                list.names.remove(at: index)
                list.instances.remove(at: index)
            }
            if let newValue {
                list.names.append(name)
                list.instances.append(newValue)
            }
            if !list.names.isEmpty { named[key.type] = list }
        }
    }
}

/// A held instance, boxed at the type it was registered as. The box is a
/// class, so a resolve checks the type with a class cast (its metadata
/// compared with the box's) where casting an `Any` to the service walks the
/// run-time's conformance and cast machinery: about 200 instructions of a
/// 650-instruction resolve. A key names the type a registration was made
/// for by its metatype's value, which may be a subclass of the static type
/// the box was made at (`let type: Base.Type = Derived.self`): then the box
/// does not match and the instance is cast as an `Any`, as before.
@usableFromInline
class HeldInstance: @unchecked Sendable {
    @usableFromInline
    init() {}

    /// The instance as an `Any`, for the cast the box cannot make.
    @usableFromInline
    var instance: Any { preconditionFailure("a HeldValue overrides it") }
}

@usableFromInline
final class HeldValue<Service>: HeldInstance, @unchecked Sendable {
    @usableFromInline
    let value: Service

    @usableFromInline
    init(_ value: Service) {
        self.value = value
    }

    @usableFromInline
    override var instance: Any { value }
}

extension HeldInstance {
    /// The instance, at the type it is resolved as.
    @inlinable @inline(__always)
    func value<Service>(as _: Service.Type) -> Service {
        if let box = self as? HeldValue<Service> { return box.value }
        return instance as! Service
    }
}
