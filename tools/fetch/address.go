package fetch

import (
	"errors"
	"fmt"
	"net/netip"
	"syscall"
)

// ErrBlockedAddress is wrapped by a connection refused because its address
// is loopback, private, link-local, a metadata service or otherwise not on
// the public internet.
var ErrBlockedAddress = errors.New("address not on the public internet")

// blockedPrefixes are the networks web_fetch never connects to unless
// private addresses are allowed.
var blockedPrefixes = mustPrefixes(
	"0.0.0.0/8",       // "this network"; 0.0.0.0 reaches the local host
	"10.0.0.0/8",      // private
	"100.64.0.0/10",   // carrier-grade NAT; Alibaba's metadata at 100.100.100.200
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link-local; the cloud metadata service at 169.254.169.254
	"172.16.0.0/12",   // private
	"192.0.0.0/24",    // IETF protocol assignments (Oracle's metadata at 192.0.0.192)
	"192.88.99.0/24",  // 6to4 relay anycast
	"192.168.0.0/16",  // private
	"198.18.0.0/15",   // benchmarking
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, and 255.255.255.255 broadcast
	"::/128",          // unspecified
	"::1/128",         // loopback
	"::/96",           // IPv4-compatible (deprecated): ::127.0.0.1
	"::ffff:0:0:0/96", // IPv4-translated (SIIT): ::ffff:0:127.0.0.1
	"2001::/32",       // Teredo: a tunnel to an IPv4 address it carries obfuscated
	"fec0::/10",       // site-local (deprecated)
	"fc00::/7",        // unique local (AWS's IPv6 metadata at fd00:ec2::254)
	"fe80::/10",       // link-local
	"ff00::/8",        // multicast
	"64:ff9b::/96",    // NAT64: checked again on the IPv4 address it embeds
	"64:ff9b:1::/48",  // local-use NAT64
	"2002::/16",       // 6to4: checked again on the IPv4 address it embeds
	"100::/64",        // discard-only
	"2001:db8::/32",   // documentation
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Blocked reports whether web_fetch refuses to connect to ip: an IPv4
// address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 one,
// and a NAT64 or 6to4 address by the IPv4 address it carries too.
func Blocked(ip netip.Addr) bool {
	if !ip.IsValid() {
		return true
	}
	ip = ip.Unmap()
	for _, p := range blockedPrefixes {
		if p.Contains(ip) {
			// NAT64 and 6to4 carry a public IPv4 address as often as a
			// private one: judge the one they carry.
			if v4, ok := embedded(ip, p); ok {
				return Blocked(v4)
			}
			return true
		}
	}
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified()
}

// embedded returns the IPv4 address a NAT64 (64:ff9b::/96, last 32 bits) or
// 6to4 (2002::/16, bits 16-48) address carries.
func embedded(ip netip.Addr, p netip.Prefix) (netip.Addr, bool) {
	b := ip.As16()
	switch p.String() {
	case "64:ff9b::/96":
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case "2002::/16":
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// dialControl returns the net.Dialer Control hook: it runs after DNS
// resolution, on the address about to be connected to, for the first
// request and every redirect, so neither a hostname resolving to a private
// address nor DNS rebinding between a check and the connection gets
// through. blocked judges the address (Blocked but in tests).
func dialControl(blocked func(netip.AddrPort) bool) func(string, string, syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("address %q is not an IP address and port: %w", address, ErrBlockedAddress)
		}
		if blocked(ap) {
			return fmt.Errorf("web_fetch refuses to connect to %s: %w (web_fetch_allow_private = true in config.toml allows it)",
				ap.Addr().Unmap(), ErrBlockedAddress)
		}
		return nil
	}
}

// blockedAddrPort is the production check: the port does not matter.
func blockedAddrPort(ap netip.AddrPort) bool { return Blocked(ap.Addr()) }
