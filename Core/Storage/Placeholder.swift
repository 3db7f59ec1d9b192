// Storage
