package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/store/dynamo"
	"github.com/duetbot/duet/shared/transcript"
)

func init() {
	register("chats", "the bot's conversations from SESSIONS_TABLE: chats list | show ID | export -out FILE", runChats)
}

const chatsUsage = `usage: duet chats list [-since DUR] [-open]
       duet chats show ID
       duet chats export [-since DUR] [-format json|html] [-bot convai|annex] -out FILE
Reads SESSIONS_TABLE (on DYNAMODB_ENDPOINT when set); -table names another.`

func runChats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, chatsUsage)
	}
	switch args[0] {
	case "list":
		return chatsList(ctx, args[1:], stdout, stderr)
	case "show":
		return chatsShow(ctx, args[1:], stdout, stderr)
	case "export":
		return chatsExport(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("%w: unknown chats command %q\n%s", errUsage, args[0], chatsUsage)
}

// chatsFlags are the flags every chats command has.
type chatsFlags struct {
	fs    *flag.FlagSet
	table *string
}

func newChatsFlags(name string, stderr io.Writer) chatsFlags {
	fs := newFlags("chats "+name, stderr)
	return chatsFlags{fs: fs, table: fs.String("table", "", "the sessions table (default: SESSIONS_TABLE)")}
}

// archive opens the table the flags or the environment name.
func (f chatsFlags) archive(ctx context.Context) (*dynamo.Archive, string, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return nil, "", err
	}
	table := *f.table
	if table == "" {
		table = cfg.SessionsTable
	}
	if table == "" {
		return nil, "", fmt.Errorf("%w: no table: set SESSIONS_TABLE (the stack's SessionsTableName output) or pass -table", errUsage)
	}
	client, err := dynamo.NewClient(ctx, cfg.DynamoDBEndpoint)
	if err != nil {
		return nil, "", err
	}
	return dynamo.NewArchive(client, table, nil), table, nil
}

// readChats returns every session in the table, those active within
// since (0: all), and says on stderr how much it read.
func readChats(ctx context.Context, a *dynamo.Archive, table string, since time.Duration, stderr io.Writer) ([]transcript.Chat, error) {
	logs, read, err := a.Chats(ctx)
	if err != nil {
		return nil, err
	}
	var chats []transcript.Chat
	cutoff := time.Now().Add(-since)
	for _, l := range logs {
		for _, c := range transcript.FromRecords(l.ID, l.Head, l.Records) {
			if since > 0 && c.Last.Before(cutoff) {
				continue
			}
			chats = append(chats, c)
		}
	}
	fmt.Fprintf(stderr, "duet chats: read %d items of %s (%d examined, %d pages): %d chats, %d sessions\n",
		read.Items, table, read.Scanned, read.Pages, len(logs), len(chats))
	return chats, nil
}

func chatsList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newChatsFlags("list", stderr)
	since := f.fs.Duration("since", 0, "only the chats active within this long (e.g. 24h; 0: all)")
	open := f.fs.Bool("open", false, "only the chats still open")
	if err := f.fs.Parse(args); err != nil {
		return err
	}
	if f.fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected %q\n%s", errUsage, f.fs.Arg(0), chatsUsage)
	}
	a, table, err := f.archive(ctx)
	if err != nil {
		return err
	}
	chats, err := readChats(ctx, a, table, *since, stderr)
	if err != nil {
		return err
	}
	if *open {
		kept := chats[:0]
		for _, c := range chats {
			if c.State == transcript.Open || c.State == transcript.Undelivered && c.Final == nil {
				kept = append(kept, c)
			}
		}
		chats = kept
	}
	return transcript.WriteList(stdout, chats)
}

func chatsShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newChatsFlags("show", stderr)
	// A chat id may be negative ("-1234:1"), which the flag package would
	// take for a flag: an id first is read as the id.
	var idArg string
	if len(args) > 0 {
		if _, _, err := transcript.ParseID(args[0]); err == nil {
			idArg, args = args[0], args[1:]
		}
	}
	if err := f.fs.Parse(args); err != nil {
		return err
	}
	if idArg == "" && f.fs.NArg() > 0 {
		idArg = f.fs.Arg(0)
	}
	if idArg == "" {
		return fmt.Errorf("%w: duet chats show ID (an id from `duet chats list`, e.g. 42:1, or a chat id for all its sessions)", errUsage)
	}
	chatID, session, err := transcript.ParseID(idArg)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	a, table, err := f.archive(ctx)
	if err != nil {
		return err
	}
	l, read, err := a.Chat(ctx, chatID)
	if errors.Is(err, duet.ErrNotFound) {
		return fmt.Errorf("no chat %d in %s (it may have expired; `duet chats list` lists the chats)", chatID, table)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "duet chats: read %d items of %s\n", read.Items, table)
	shown := 0
	for _, c := range transcript.FromRecords(l.ID, l.Head, l.Records) {
		if session != 0 && c.Session != session {
			continue
		}
		if shown > 0 {
			fmt.Fprintln(stdout)
		}
		if err := transcript.WriteChat(stdout, &c); err != nil {
			return err
		}
		shown++
	}
	if shown == 0 {
		return fmt.Errorf("chat %d has no session %d in %s", chatID, session, table)
	}
	return nil
}
