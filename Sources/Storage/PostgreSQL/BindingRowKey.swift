import Model
import StorageSupport

/// What identifies a `bindings` row: the AOR and the binding key's stored form.
struct BindingRowKey: Hashable {
    let aor: String
    let key: String

    init(_ binding: Binding) {
        aor = binding.aor
        key = binding.key.storageKey
    }
}
