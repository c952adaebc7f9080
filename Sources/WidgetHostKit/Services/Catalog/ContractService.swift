import Glibc
import PluginABI

/// "widget-host.contract/1" (services/contract.h): a consumer's ask of a
/// contract another plugin provides. The function is one; the tables are
/// one per contract id (the table says which contract it asks), made the
/// first time a plugin in this process is given that contract.
enum ContractService {
    static let ask = ServiceFunction(service: WH_SERVICE_CONTRACT, name: "ask", arguments: [.text], writesOutput: true,
                                     runs: .onWaitingCaller, fallback: Int64(WH_CONTRACT_UNAVAILABLE),
                                     whenSinkRefuses: Int64(WH_CONTRACT_TOO_LARGE)) { context, arguments, out in
        context.ask(contract: arguments.text(0)!, out: out!)
    }

    static let description = ServiceDescription(WH_SERVICE_CONTRACT, [ask], table: table(id: nil), grantedByID: false)

    /// The C edge: the arguments checked, and the [in-call] rule, which only
    /// the plugin's own side can see (in process, or its isolated process).
    private static func table(id: UnsafePointer<CChar>?) -> wh_contract_v1 {
        wh_contract_v1(id: id, ask: { host, contract, out in
            guard let id = contract?.pointee.id, let out, let name = ServiceValue.cString(id) else { return Int32(WH_CONTRACT_FAILED) }
            guard PluginCall.isInsideCall else { return Int32(WH_CONTRACT_NOT_NOW) }
            return Int32(clamping: ContractService.ask.call(host, [name], out))
        })
    }

    private static let tables = Locked<[String: UnsafeRawPointer]>([:])

    /// The table for contract `id`, the same for the life of the process: a
    /// plugin may keep it, as it keeps any service table.
    static func table(for id: String) -> UnsafeRawPointer {
        tables.withLock { tables in
            if let table = tables[id] { return table }
            let pointer = UnsafeMutablePointer<wh_contract_v1>.allocate(capacity: 1)
            pointer.initialize(to: table(id: UnsafePointer(strdup(id))))
            tables[id] = UnsafeRawPointer(pointer)
            return UnsafeRawPointer(pointer)
        }
    }
}
