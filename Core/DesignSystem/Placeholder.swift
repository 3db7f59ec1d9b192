// DesignSystem
