print("route-benchmark")
