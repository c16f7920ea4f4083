import Glibc

/// The fields of a header block as bytes, in order, in one buffer.
struct HeaderBlockBytes {
    private var bytes: [UInt8] = []
    private var spans: [(name: Int, nameCount: Int, valueCount: Int)] = []
    /// The positions of the regular fields (not pseudo-headers), in order.
    private var regularFields: [Int] = []

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        regularFields.removeAll(keepingCapacity: true)
    }

    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if name.first != UInt8(ascii: ":") { regularFields.append(spans.count) }
        spans.append((bytes.count, name.count, value.count))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: value)
    }

    /// Whether field `k` has these bytes.
    func matches(_ k: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        spans.withUnsafeBufferPointer { spans in
            guard k < spans.count else { return false }
            let span = spans[k]
            guard span.nameCount == name.count, span.valueCount == value.count else { return false }
            return bytes.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress! + span.name
                return (name.isEmpty || memcmp(base, name.baseAddress!, name.count) == 0)
                    && (value.isEmpty || memcmp(base + name.count, value.baseAddress!, value.count) == 0)
            }
        }
    }

    /// Whether the block's regular field `k` (counting only regular fields) has these bytes.
    func matchesRegular(_ k: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        k < regularFields.count && matches(regularFields[k], name: name, value: value)
    }
}
