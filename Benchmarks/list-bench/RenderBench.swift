func runRenderBenchmarks() {
    print("  (not written yet)")
}
