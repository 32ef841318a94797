// Release-mode benchmark harness: `swift run -c release list-bench [group…]`.
// Each group prints medians over repeated runs; pass group names to run only those.

let groups: [(name: String, run: () -> Void)] = [
    ("json", runJSONBenchmarks),
    ("diff", runDiffBenchmarks),
    ("render", runRenderBenchmarks),
    ("paging", runPagingBenchmarks),
    ("views", runViewBenchmarks),
    ("live-views", runLiveViewBenchmarks),
    ("writes", runWriteBenchmarks),
    ("row-edits", runRowEditBenchmarks),
    ("gzip", runGzipBenchmarks),
    ("patches", runPatchBenchmarks),
    ("patches-small", runSmallWriteBenchmarks),
    ("patches-profile", runPatchProfile),
    ("chained-tail", runChainedTailBenchmark),
    ("big-patch", runBigPatchBenchmark),
    ("put", runPutBenchmarks),
    ("put-profile", runPutProfile),
    ("memory", runMemoryBenchmarks),
]

let selected = Set(CommandLine.arguments.dropFirst())
for group in groups where selected.isEmpty || selected.contains(group.name) {
    print("== \(group.name)")
    group.run()
}
