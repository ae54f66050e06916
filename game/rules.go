package game

// RulesVersion is the version of the game's rules: of what Step makes of
// a world and its inputs. Any change to a rule below or to the simulation
// needs a new one (and a new protocol version); recordings carry it, so a
// build replays only matches played under its own rules. Version 3 was
// the first numbered (with protocol version 3); version 4 has a match left
// with one tank wait for another (PhaseWaiting) instead of playing rounds
// against nobody.
const RulesVersion uint8 = 4

// The rules of the game. Distances are in sub-tile units (SubTile per tile),
// speeds in sub-tiles per tick, durations in ticks. They are constants so
// that every peer runs exactly the same rules; changing one changes the
// golden hashes in testdata/ (and needs a new RulesVersion and protocol
// version).
const (
	// SubTile is the number of position units in one maze tile.
	SubTile      = 1 << subTileShift
	subTileShift = 10

	// MaxPlayers is the number of player slots a world can have.
	MaxPlayers = 8

	// TankHalf is half the side of a tank's square hit box.
	TankHalf = 352
	// TankSpeed is a tank's top speed along one axis.
	TankSpeed = 64
	// TankDiagSpeed is the per-axis top speed when moving diagonally
	// (TankSpeed/√2, rounded).
	TankDiagSpeed = 45
	// TankAccelShift sets how fast velocity approaches its target: each tick
	// the velocity closes 1/2^TankAccelShift of the remaining gap.
	TankAccelShift = 2
	// TankHP is a tank's hit points at the start of a round.
	TankHP = 3
	// CornerAssist is how far off a lane's centre a tank may be and still be
	// slid into a side opening it is steering towards.
	CornerAssist = 400

	// FireCooldown is the number of ticks after firing before a tank can
	// fire again.
	FireCooldown = 15
	// MaxBulletsPerTank caps the bullets one tank has in flight.
	MaxBulletsPerTank = 8
	// MaxBullets is the number of bullet slots in a world.
	MaxBullets = MaxPlayers * MaxBulletsPerTank
	// BulletSpeed is a bullet's speed along each axis it moves on. It is
	// below TankHalf so a bullet cannot jump over a tank in one tick.
	BulletSpeed = 120
	// BulletDiagSpeed is the per-axis speed of a diagonal bullet.
	BulletDiagSpeed = 85
	// BulletLife is how many ticks a bullet flies before it vanishes.
	BulletLife = 240
	// BulletBounces is how many ricochets a bullet survives; the next wall
	// contact removes it.
	BulletBounces = 5
	// BulletDamage is the HP a hit removes.
	BulletDamage = 1

	// HitstunTicks is how long a hit tank ignores its input.
	HitstunTicks = 18
	// KnockbackSpeed is the velocity a hit gives the tank along the bullet's
	// direction of travel.
	KnockbackSpeed = 96

	// RoundTicks is the time limit of a round (90 s). A round that reaches it
	// ends in a draw.
	RoundTicks = 90 * TickRate
	// RoundOverTicks is how long the round-over banner shows before the next
	// round starts on a new maze.
	RoundOverTicks = 3 * TickRate
	// CountdownTicks is the 3-2-1 countdown before every round, the first
	// included: the tanks are in place but their inputs are ignored.
	CountdownTicks = 3 * TickRate
)
