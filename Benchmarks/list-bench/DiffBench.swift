func runDiffBenchmarks() {
    print("  (not written yet)")
}
