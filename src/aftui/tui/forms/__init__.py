"""Forms that change the service: each module holds the forms of one resource."""
