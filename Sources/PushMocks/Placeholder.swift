enum PushMocksPlaceholder {}
