// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "presencetop",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "presencetop", targets: ["presencetop"]),
        .library(name: "RTDBCore", targets: ["RTDBCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "RTDBCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "presencetop",
            dependencies: [
                "RTDBCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RTDBCoreTests", dependencies: ["RTDBCore"]),
    ],
    swiftLanguageModes: [.v6]
)
