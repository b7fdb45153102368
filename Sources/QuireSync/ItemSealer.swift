import Foundation
import QuireCore
import QuireCrypto
import QuireProtocol

/// Seals what a device sends and opens what it receives, for an encrypted account (SPEC:
/// End-to-end encryption): every value an op sets is sealed for its item and field, every value
/// it changed from becomes that value's MAC, and every item the server sends is opened back into
/// a plain item, or found unreadable with the reason. Nothing past this type sees a sealed value.
public struct ItemSealer: Sendable {
    public let keys: DataKeys
    /// `keys.fingerprint`, recorded with each item that does not open under them.
    public let fingerprint: String

    public init(keys: DataKeys) {
        self.keys = keys
        fingerprint = keys.fingerprint
    }

    // MARK: - Sending

    /// The op with its values sealed. A create carries every field (the defaults too), so that
    /// each field of the item has a MAC the server can compare later.
    public func seal(_ op: Op) -> Op {
        guard var fields = op.fields else { return op }
        if op.kind == .create {
            let blank = ChangeItem(id: op.item, rev: 0, title: "", createdAt: Date(), updatedAt: Date())
            for field in Field.allCases where fields[field] == nil {
                fields[field] = FieldChange(from: .null, to: blank.value(of: field))
            }
        }
        var sealed = op
        sealed.fields = fields.reduce(into: [:]) { result, entry in
            let (field, change) = entry
            result[field] = FieldChange(
                from: .mac(mac(of: change.from, field: field, item: op.item)),
                to: .sealed(seal(change.to, field: field, item: op.item)))
        }
        return sealed
    }

    func seal(_ value: FieldValue, field: Field, item: String) -> SealedValue {
        var bytes: [UInt8] = []
        CompactJSON.appendValue(value, to: &bytes)
        let text = FieldCipher.seal(Data(bytes), item: item, field: field.rawValue, keys: keys)
        return SealedValue(text: text, mac: mac(of: value, field: field, item: item))
    }

    /// The MAC of a field's value under the current key. Equal values give equal MACs however
    /// they are spelled on the wire: a body by its SHA-256 (an op may carry only that as its
    /// `from`), tags sorted and unique with none as the empty list.
    func mac(of value: FieldValue, field: Field, item: String) -> String {
        ValueMAC.mac(
            of: Data(ItemSealer.macMessage(of: value, field: field)), item: item, field: field.rawValue, keys: keys)
    }

    static func macMessage(of value: FieldValue, field: Field) -> [UInt8] {
        var bytes: [UInt8] = []
        appendMACMessage(of: value, field: field, to: &bytes)
        return bytes
    }

    static func appendMACMessage(of value: FieldValue, field: Field, to bytes: inout [UInt8]) {
        var canonical = value
        switch (field, value) {
        case (.body, .string(let text)): canonical = .sha256(ContentHash.sha256Hex(text))
        case (.body, .sha256(let hex)): canonical = .sha256(hex.lowercased())
        case (.tags, .null): canonical = .strings([])
        case (.tags, .strings(let list)): canonical = .strings(Tags.normalize(list))
        default: break
        }
        CompactJSON.appendValue(canonical, to: &bytes)
    }

    // MARK: - Receiving

    /// The plain item a sealed one holds; a plain item (stored before the account was encrypted,
    /// or a tombstone the server emptied) as it is.
    public func open(_ item: ChangeItem) throws(ItemUnreadable) -> ChangeItem {
        guard let sealed = item.sealed else { return item }
        var plain = Item(id: item.id, title: "", createdAt: item.createdAt)
        // One buffer for every field's MAC message: cleared, never given back, between fields.
        var message: [UInt8] = []
        for field in Field.allCases {
            guard let value = sealed[field] else {
                throw ItemUnreadable(item, triedKeys: fingerprint, reason: "its \(field.rawValue) is missing")
            }
            var read: FieldValue?
            do {
                try FieldCipher.withOpened(value.text, item: item.id, field: field.rawValue, keys: keys) {
                    read = ItemSealer.fieldValue($0)
                }
            } catch {
                throw ItemUnreadable(
                    item, triedKeys: fingerprint, reason: "its \(field.rawValue) does not open: \(error)")
            }
            guard let opened = read else {
                throw ItemUnreadable(
                    item, triedKeys: fingerprint, reason: "its \(field.rawValue) is not a value Quire writes")
            }
            message.removeAll(keepingCapacity: true)
            ItemSealer.appendMACMessage(of: opened, field: field, to: &message)
            guard ValueMAC.matches(value.mac, of: message, item: item.id, field: field.rawValue, keys: keys) else {
                throw ItemUnreadable(
                    item, triedKeys: fingerprint, reason: "the MAC of its \(field.rawValue) does not match its value")
            }
            do {
                try plain.set(field, to: opened, now: item.updatedAt)
            } catch {
                throw ItemUnreadable(
                    item, triedKeys: fingerprint, reason: "its \(field.rawValue) is not valid: \(error)")
            }
        }
        var result = ChangeItem(plain)
        result.rev = item.rev
        result.deleted = item.deleted
        result.createdAt = item.createdAt
        result.updatedAt = item.updatedAt
        result.doneAt = result.done ? item.doneAt : nil
        result.version = item.version
        return result
    }

    /// The items that open, in order; the others are added to `failing`.
    public func open(_ items: [ChangeItem], failing: inout [ItemUnreadable]) -> [ChangeItem] {
        var opened: [ChangeItem] = []
        opened.reserveCapacity(items.count)
        for item in items {
            do {
                opened.append(try open(item))
            } catch {
                failing.append(error)
            }
        }
        return opened
    }

    static func fieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        var reader = CompactJSONReader(bytes)
        guard let value = reader.value(), reader.isAtEnd else { return nil }
        return value
    }
}

/// An item the device received but cannot open, with why: shown beside the item (SPEC: failure
/// is visible and local), while every other item syncs on.
public struct ItemUnreadable: Error, Hashable, Sendable, CustomStringConvertible {
    public var id: String
    /// The server's revision of the version that did not open, and whether it is a tombstone:
    /// the device's state hash counts that version (`UnreadableVersion`).
    public var rev: Int
    public var deleted: Bool
    public var reason: String
    /// The fingerprint of the keys it did not open under (`DataKeys.fingerprint`).
    public var triedKeys: String

    init(_ item: ChangeItem, triedKeys: String, reason: String) {
        id = item.id
        rev = item.rev
        deleted = item.deleted
        self.triedKeys = triedKeys
        self.reason = reason
    }

    public var description: String { "item \(id) cannot be read: \(reason)" }
}
