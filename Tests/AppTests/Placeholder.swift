// AppTests
