import HTTP
import Testing

@testable import PushMocks

@Suite struct CaptureStoreTests {
    static func capture(_ n: Int) -> Capture {
        var c = Capture(request: HTTPRequest(method: "POST", target: "/3/device/x"), mock: .apns, arrivalMs: Int64(n))
        c.sequence = n
        return c
    }

    @Test func keepsOrderAcrossChunks() {
        var store = CaptureStore()
        let n = CaptureStore.chunkSize * 3 + 17
        for i in 1...n { store.append(Self.capture(i)) }
        #expect(store.count == n)
        #expect(store.filter { _ in true }.map(\.sequence) == Array(1...n))
        #expect(store.filter { $0.sequence % 1000 == 0 }.map(\.sequence) == [1000, 2000, 3000])
    }

    @Test func dropsOldestAcrossChunkBoundaries() {
        var store = CaptureStore()
        var expected: [Int] = []
        var next = 1
        for drop in [0, 5, CaptureStore.chunkSize - 5, 1, CaptureStore.chunkSize * 2 + 3, 7] {
            for _ in 0..<(CaptureStore.chunkSize + 11) {
                store.append(Self.capture(next))
                expected.append(next)
                next += 1
            }
            store.removeFirst(drop)
            expected.removeFirst(min(drop, expected.count))
            #expect(store.count == expected.count)
            #expect(store.filter { _ in true }.map(\.sequence) == expected)
        }
        store.removeFirst(store.count + 10)
        #expect(store.count == 0)
        #expect(store.filter { _ in true }.isEmpty)
        store.append(Self.capture(1))
        #expect(store.filter { _ in true }.map(\.sequence) == [1])
    }

    @Test func logAtCapacityKeepsTheNewest() {
        let log = CaptureLog(capacity: 2000)
        for i in 1...5000 { log.record(Self.capture(i)) }
        let kept = log.captures()
        #expect(kept.count == 2000)
        #expect(kept.first?.sequence == 3001)
        #expect(kept.last?.sequence == 5000)
    }
}
