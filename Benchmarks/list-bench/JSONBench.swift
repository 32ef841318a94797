func runJSONBenchmarks() {
    print("  (not written yet)")
}
