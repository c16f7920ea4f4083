enum ReportsPlaceholder {}
