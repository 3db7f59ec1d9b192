// Money
