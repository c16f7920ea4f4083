enum SigningPlaceholder {}
