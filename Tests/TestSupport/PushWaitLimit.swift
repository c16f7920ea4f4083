/// How long the test stacks' `waitForPushes` wait by default. Generous: the wait ends on the last push, and a
/// busy machine running the whole test suite can hold a retried push back for tens of seconds.
public let pushWaitLimit: Duration = .seconds(60)
