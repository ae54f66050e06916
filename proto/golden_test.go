package proto

// Golden encodings of the fixtures in fixtures_test.go, written out by
// field. PROTOCOL.md shows the same bytes, and TestProtocolDocExamples
// checks that it does.
const (
	goldenVersion = "0a"
	goldenHeader  = "0123456789abcdef" + "a1b2c3d4" + "01" + "00000102" // session, match, player, seq

	goldenHello = "5454" + goldenVersion + "01" + goldenHeader +
		"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000" // 43 bytes of padding

	goldenChallenge = "5454" + goldenVersion + "02" + goldenHeader +
		"c0c1c2c3c4c5c6c7" + "c8c9cacbcccdcecfd0d1d2d3d4d5d6d7" // cookie: time, MAC

	goldenJoin = "5454" + goldenVersion + "03" + goldenHeader +
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7" + // cookie
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff" + // client ephemeral key
		"0000000000000000000000000000000000000000000000000000000000000000000000000000" + // 76 bytes of padding
		"0000000000000000000000000000000000000000000000000000000000000000000000000000"

	goldenStart = "5454" + goldenVersion + "04" + goldenHeader +
		"01" + "02" + "00" + // slot, slots, need
		"00000258" + // start tick 600
		"0000021c" + // server tick 540
		"5eed5eed5eed5eed" + // world seed
		"19" + "15" + "02" + "05" + // maze 25x21, state every 2, first to 5
		"707172737475767778797a7b7c7d7e7f" + // token
		"03" + "64656e" + // room "den"
		"08" + "4b3751504d325844" + // code "K7QPM2XD"
		"05" + "616c696365" + "0003" + "01" + // seat 0: "alice", score 3, connected
		"03" + "626f62" + "0000" + "01" // seat 1: "bob", score 0, connected

	goldenInput = "5454" + goldenVersion + "05" + goldenHeader +
		"1234" + "84" + "000003e8" + // client time, n 4 with a base, first tick 1000
		"000003de" + // base: the State of tick 990
		"01" + "0d" + "1c" + "17" // +1,0; +1,-1; 0,-1 fire; -1,+1 fire

	goldenAck = "5454" + goldenVersion + "06" + goldenHeader +
		"000003e8" + "000003eb" + "fff4" + // server tick 1000, newest input 1003, margin -12 ms
		"beef" + "0096" + "03d1" + // echo time, echo delay 1.5 ms, received 977
		"1122334455667788" + // hash
		"0102" // guessed 258

	goldenState = "5454" + goldenVersion + "07" + goldenHeader +
		"000003e8" + "000003eb" + "fff4" + "beef" + "0096" + "03d1" + // as in Ack
		"2a25556dffcc3499" + // hash
		"0102" + // guessed 258, as in Ack
		"00" + // back 0: a full State
		"0123456789abcdef" + // rng
		"02" + "02" + // slots, bullets
		"0003" + "00" + "1388" + "01" + "feedfacecafebeef" + "19" + "15" + // round
		"07" + // rounds to win
		"0600" + "0600" + "2d" + "d3" + "3d" + "03" + "07" + "00" + "0002" + // tank 0
		"0004" + "0001" + "012c" + "000d" + // tank 0 stats: kills, deaths, shots, hits
		"59d8" + "4e20" + "a0" + "00" + "33" + "01" + "00" + "12" + "0005" + // tank 1
		"0006" + "0002" + "03e8" + "0102" + // tank 1 stats
		"0800" + "0640" + "78" + "00" + "00" + "ef" + // bullet 0
		"2710" + "3a98" + "ab" + "55" + "29" + "0c" // bullet 1

	goldenStateDelta = "5454" + goldenVersion + "07" + goldenHeader +
		"000003e8" + "000003eb" + "fff4" + "beef" + "0096" + "03d1" + // as in Ack
		"2a25556dffcc3499" + // hash
		"0102" + // guessed 258, as in Ack
		"06" + // back 6: the baseline is the State of tick 994
		"02" + // slots
		"01" + "04" + "11" + "01" + "81" + // slot 0: +1,0 for 4 ticks, then with fire for 1, then +1,0 to the end
		"8c" // slot 1: 0,-1 for all 6 ticks

	goldenChat = "5454" + goldenVersion + "11" + goldenHeader +
		"00000007" + "0006" + "676720e29c93" // line 7, 6 bytes: "gg ✓"

	goldenChatLine = "5454" + goldenVersion + "12" + goldenHeader +
		"0000000c" + "01" + "01" + "00000007" + // room line 12, from seat 1, yours, your line 7
		"03" + "626f62" + "0006" + "676720e29c93" // "bob", "gg ✓"

	goldenChatAck = "5454" + goldenVersion + "13" + goldenHeader + "0000000c" // room line 12

	goldenLeave = "5454" + goldenVersion + "09" + goldenHeader + "01" // quit

	goldenReject = "5454" + goldenVersion + "0a" + goldenHeader + "02" // full

	goldenListRooms = "5454" + goldenVersion + "0b" + goldenHeader +
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7" + // cookie
		"012c" + "00012345" // offset 300, client time

	goldenRoomList = "5454" + goldenVersion + "0c" + goldenHeader +
		"00012345" + "012e" + "012c" + "02" + // client time, total 302, offset 300, 2 rooms
		"01" + "61" + "00" + "04" + "04" + "01" + "01" + "02" + "0003" + "05" + // "a": public, 4 of 4, 1 bot, 1 spectator, playing, round 3, first to 5
		"05" + "616c696365" + "0002" + // leader "alice" with 2
		"00" + // on the server that sent the list
		"03" + "64656e" + "01" + "01" + "02" + "00" + "00" + "00" + "0000" + "05" + // "den": private, 1 of 2, waiting
		"00" + "0000" + // no leader
		"12" + "5b323030313a6462383a3a375d3a37373737" // on "[2001:db8::7]:7777"

	goldenAccept = "5454" + goldenVersion + "0d" + goldenHeader +
		"00c0ffee" + // connection id
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf" + // server ephemeral key
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f" + // server key
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f" + // signature
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"

	goldenRequest = "5454" + goldenVersion + "0e" + goldenHeader +
		"707172737475767778797a7b7c7d7e7f" + // token
		"808182838485868788898a8b8c8d8e8f" + // proof
		"04" + // flags: redirected
		"05" + "616c696365" + // name "alice"
		"01" + "03" + "64656e" + // room kind named, room "den"
		"00" + "00" + // seats, bots: only to create
		"01" + // identity: a player key
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf" + // the key
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf" + // its signature over the transcript
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

	goldenLadderQuery = "5454" + goldenVersion + "15" + goldenHeader +
		"00" + // flags: none (not forget)
		"00000014" + // offset 20
		"14" // 20 lines

	goldenLadderPage = "5454" + goldenVersion + "16" + goldenHeader +
		"01" + // flags: a card follows
		"000004d2" + // 1234 players ranked
		"00000007" + "064c" + "004a" + "0000001f" + "0000000c" + "05" + "616c696365" + // card: rank 7, 1612 ± 74, 31 matches, 12 wins, "alice"
		"00000046" + "0000005f" + "0000003d" + "00000370" + "0000012d" + "00001518" + // round wins 70, kills 95, deaths 61, shots 880, hits 301, 5400 s
		"00000000" + "02" + // offset 0, 2 lines
		"00000001" + "07db" + "002d" + "00000078" + "00000050" + "04" + "7a6fc3ab" + // 1: 2011 ± 45, 120 matches, 80 wins, "zoë"
		"00000002" + "0762" + "003c" + "00000040" + "0000001e" + "03" + "626f62" // 2: 1890 ± 60, 64, 30, "bob"

	goldenRated = "5454" + goldenVersion + "17" + goldenHeader +
		"02" + // 2 changes
		"00" + "05dc" + "067e" + "0122" + // slot 0: 1500 → 1662, RD 290
		"02" + "05dc" + "053a" + "0122" // slot 2: 1500 → 1338, RD 290

	goldenPathChallenge = "5454" + goldenVersion + "0f" + goldenHeader + "9091929394959697" // data

	goldenPathResponse = "5454" + goldenVersion + "10" + goldenHeader + "9091929394959697" // the data, echoed

	goldenRedirect = "5454" + goldenVersion + "14" + goldenHeader +
		"04" + "c0000214" + "1e61" + // IPv4 192.0.2.20, port 7777
		"b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf" + // the target's server key
		"03" + "03" + "64656e" + // room kind create, room "den"
		"01" + "04" + "01" // flags: private; 4 seats, 1 bot
)
