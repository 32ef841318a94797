func runPagingBenchmarks() {
    print("  (not written yet)")
}
