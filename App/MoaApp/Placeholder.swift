// MoaApp
