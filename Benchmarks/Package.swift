// swift-tools-version: 6.1
// Grove's benchmarks, in their own package so that `swift build` of Grove stays fast.
// Run from this folder: swift package --allow-writing-to-directory /tmp benchmark
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is whatever the clone was called.
let grove = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "GroveBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GroveCore", package: grove),
                .product(name: "GroveStore", package: grove),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
