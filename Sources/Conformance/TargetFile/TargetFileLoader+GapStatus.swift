extension TargetFileDecoder {
    /// `gapStatus: 410` (or a list such as `[409, 410]`): the statuses with which the target's feed says
    /// a cursor cannot be continued. 200 is every page's status and 1xx no answer, so neither can be one.
    mutating func decodeGapStatuses(_ node: YAMLNode, _ path: String) -> Set<Int> {
        let items: [(YAMLNode, String)]
        if let list = node.items {
            items = list.enumerated().map { ($1, "\(path)[\($0)]") }
        } else {
            items = [(node, path)]
        }
        var out: Set<Int> = []
        for (item, field) in items {
            guard let status = d.int(item, field) else { continue }
            if !(100...599).contains(status) {
                d.error(item.mark, field, "'\(status)' is not an HTTP status")
            } else if status == 200 || status < 200 {
                d.error(
                    item.mark, field,
                    "\(status) cannot say 'gap': "
                        + (status == 200 ? "every page of the feed answers 200" : "it is not a final answer")
                        + "; name the status the feed answers a lost cursor with, such as 410")
            } else {
                out.insert(status)
            }
        }
        return out
    }
}
