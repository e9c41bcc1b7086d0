module example.com/systems-kit/go

go 1.22
