/// Where a request carries the installation (device) it is made from: a target file's `installation:`
/// (`TargetFileDecoder.decodeInstallation`), file-wide or per operation.
///
/// ```swift
/// let placement = InstallationPlacement.header("X-Device-Id")
/// print(placement.description)  // "header X-Device-Id"
/// ```
public enum InstallationPlacement: Sendable, Equatable {
    /// The path template holds `{installationId}`.
    case path
    case header(String)
    /// A top-level body field.
    case body(String)
    case query(String)
    /// Not sent.
    case none

    public var description: String {
        switch self {
        case .path: return "path"
        case .header(let n): return "header \(n)"
        case .body(let n): return "body field \(n)"
        case .query(let n): return "query parameter \(n)"
        case .none: return "not sent"
        }
    }
}
