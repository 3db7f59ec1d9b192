// ArchitectureTests
