import CLinux
import Foundation
import TestSupport
import Testing

@testable import HTTP

/// The HTTP client's epoll set (`ClientSocketWatch`) against what libcurl does with sockets: a descriptor
/// epoll will not take, and a socket number closed unseen and handed out again.
@Suite struct ClientSocketWatchTests {
    @Test func aDescriptorEpollRefusesIsStillReportedReady() throws {
        // epoll takes no regular file (EPERM): the watch must not lose it, or its transfer would wait unseen
        // until its timeout.
        let dir = TemporaryDirectory()
        let path = dir.file("not-a-socket")
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let watch = try ClientSocketWatch()
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: 8)
        defer { events.deallocate() }

        watch.watch(fd, reading: true, writing: false)
        #expect(watch.wait(into: events, capacity: 8) == 1)
        #expect(events[0].data.u64 == ClientSocketWatch.token(fd))
        #expect(events[0].events & EPOLLIN.rawValue != 0)
        #expect(events[0].events & EPOLLOUT.rawValue == 0)

        // Once forgotten it is reported no more (the wake-up makes the wait return at once).
        watch.forget(fd)
        watch.wakeUp()
        #expect(watch.wait(into: events, capacity: 8) == 0)
    }

    @Test func aSocketNumberClosedUnseenAndHandedOutAgainIsWatched() throws {
        let watch = try ClientSocketWatch()
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: 8)
        defer { events.deallocate() }
        let first = try Self.socketPair()
        watch.watch(first.0, reading: true, writing: false)
        // Closed without a word to the watch: epoll drops it, the watch still thinks it is in the set.
        let number = first.0
        close(first.0)
        close(first.1)
        // A new socket under the same number, readable.
        let second = try Self.socketPair()
        defer { close(second.1) }
        if second.0 != number {
            try #require(dup2(second.0, number) == number)
            close(second.0)
        }
        defer { close(number) }

        // In the epoll set again: not reported while it has nothing to read (the wake-up makes the wait
        // return at once), reported once it has.
        watch.watch(number, reading: true, writing: false)
        watch.wakeUp()
        #expect(watch.wait(into: events, capacity: 8) == 0)
        #expect(write(second.1, "x", 1) == 1)
        #expect(watch.wait(into: events, capacity: 8) == 1)
        #expect(events[0].data.u64 == ClientSocketWatch.token(number))
        #expect(events[0].events & EPOLLIN.rawValue != 0)
    }

    private static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }
}
