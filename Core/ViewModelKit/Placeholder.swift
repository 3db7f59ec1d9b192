// ViewModelKit
