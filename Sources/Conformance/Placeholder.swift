import CYAML
enum ConformancePlaceholder { static func yamlVersion() -> String { String(cString: yaml_get_version_string()) } }
