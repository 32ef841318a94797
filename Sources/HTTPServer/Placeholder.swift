enum HTTPServerPlaceholder {}
