module github.com/duetbot/duet

go 1.25
