// Registry
