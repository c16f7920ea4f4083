import Foundation
import JSON

/// `ringcheck load`'s report against its own schema, docs/load-report.schema.json (`ringcheck.load/1`).
public enum LoadReportSchema {
    public static let path = ReportConformance.repository.appendingPathComponent("docs/load-report.schema.json").path

    /// Why `report` does not match the schema; empty when it does.
    public static func violations(of report: JSONValue) throws -> [String] {
        try JSONSchemaValidator(file: path).violations(of: report)
    }
}
