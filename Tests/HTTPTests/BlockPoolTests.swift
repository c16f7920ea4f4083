import CLinux
import Testing

/// The block pool nghttp2 allocates from: every block is its own, aligned, at least as large as asked,
/// handed back out after a free, zeroed by calloc and moved intact by realloc.
@Suite struct BlockPoolTests {
    /// Sizes around every class boundary, and beyond the largest class.
    static let sizes = Array(0...70) + [127, 128, 129, 500, 1000, 1023, 1024, 1025, 1040, 4096, 20000]

    @Test func blocksAreDistinctAlignedAndComeBackAfterAFree() throws {
        let pool = try #require(rc_block_pool_create())
        defer { rc_block_pool_destroy(pool) }
        let raw = UnsafeMutableRawPointer(pool)
        var first: [UnsafeMutableRawPointer] = []
        for (i, size) in Self.sizes.enumerated() {
            let p = try #require(rc_block_pool_malloc(size, raw))
            #expect(Int(bitPattern: p) % 16 == 0, "size \(size)")
            p.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: i), count: size)
            first.append(p)
        }
        // Each block still holds what was written to it: none overlaps another.
        for (i, (p, size)) in zip(first, Self.sizes).enumerated() {
            let bytes = UnsafeRawBufferPointer(start: p, count: size)
            #expect(bytes.allSatisfy { $0 == UInt8(truncatingIfNeeded: i) }, "size \(size)")
        }
        for p in first { rc_block_pool_free(p, raw) }
        // The pooled sizes get their blocks back (each class hands out the block freed last first).
        var second: [UnsafeMutableRawPointer] = []
        for size in Self.sizes.reversed() { second.append(try #require(rc_block_pool_malloc(size, raw))) }
        let pooled = Set(zip(first, Self.sizes).filter { $0.1 <= 1024 }.map(\.0))
        #expect(pooled.isSubset(of: Set(second)))
        for p in second { rc_block_pool_free(p, raw) }
        rc_block_pool_free(nil, raw)
    }

    @Test func callocZeroesAReusedBlock() throws {
        let pool = try #require(rc_block_pool_create())
        defer { rc_block_pool_destroy(pool) }
        let raw = UnsafeMutableRawPointer(pool)
        let p = try #require(rc_block_pool_malloc(48, raw))
        p.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 48)
        rc_block_pool_free(p, raw)
        let q = try #require(rc_block_pool_calloc(6, 8, raw))
        #expect(q == p)
        #expect(UnsafeRawBufferPointer(start: q, count: 48).allSatisfy { $0 == 0 })
        rc_block_pool_free(q, raw)
        #expect(rc_block_pool_calloc(Int.max, 2, raw) == nil)
    }

    @Test func reallocKeepsTheBytesAcrossClassesAndBeyond() throws {
        let pool = try #require(rc_block_pool_create())
        defer { rc_block_pool_destroy(pool) }
        let raw = UnsafeMutableRawPointer(pool)
        var p = try #require(rc_block_pool_realloc(nil, 10, raw))
        for i in 0..<10 { p.storeBytes(of: UInt8(i), toByteOffset: i, as: UInt8.self) }
        // Within its class's 16 bytes the block stays where it is.
        #expect(rc_block_pool_realloc(p, 16, raw) == p)
        for size in [17, 300, 1024, 5000, 3] {
            p = try #require(rc_block_pool_realloc(p, size, raw))
            let kept = UnsafeRawBufferPointer(start: p, count: 3)
            #expect(Array(kept) == [0, 1, 2], "size \(size)")
        }
        #expect(rc_block_pool_realloc(p, 0, raw) == nil)
    }

    /// More frees of one class than the pool keeps: the rest go back to the C allocator.
    @Test func manyBlocksOfOneClass() throws {
        let pool = try #require(rc_block_pool_create())
        defer { rc_block_pool_destroy(pool) }
        let raw = UnsafeMutableRawPointer(pool)
        for _ in 0..<3 {
            let blocks = try (0..<1000).map { _ in try #require(rc_block_pool_malloc(100, raw)) }
            #expect(Set(blocks).count == 1000)
            for p in blocks { rc_block_pool_free(p, raw) }
        }
    }
}
