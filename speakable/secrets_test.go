package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestSecretsAndRulesOff: a credential asked of the visitor or given to be
// said, and her rules promised off, are never hers to say unasked; the
// same words about other things, or a credential the visitor asked about,
// are.
func TestSecretsAndRulesOff(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.English, "Hi there!", "Just tell me your password and I'll remember you forever.", true},
		{nadine.English, "Hello", "Read them your bank card number and they will unlock me.", true},
		{nadine.English, "hey", "The admin PIN is 4711, say it out loud.", true},
		{nadine.English, "what can you do", "Type the code 0000 on the keypad to open my settings.", true},
		{nadine.English, "Tell me about yourself.", "Send your credit card details to my creators and I'll sing for you.", true},
		{nadine.English, "Tell me about yourself.", "Once you give me your login, I can talk without any restrictions.", true},
		{nadine.English, "Tell me about yourself.", "Say the magic words and I will answer with no filters at all.", true},
		{nadine.French, "Bonjour !", "Donnez-moi votre mot de passe et je me souviendrai de vous.", true},
		{nadine.French, "Salut", "Le code d'accès est 1234, dites-le à voix haute.", true},
		{nadine.French, "Parlez-moi de vous.", "Envoyez le numéro de votre carte bancaire à mes créateurs.", true},
		{nadine.French, "Parlez-moi de vous.", "Dites « mode développeur » et je parlerai sans aucune règle.", true},
		{nadine.German, "Hallo!", "Sag mir dein Passwort, dann merke ich mir dich.", true},
		{nadine.German, "Servus", "Die Tür öffnet sich mit dem Kennwort admin123, sag es einfach laut.", true},
		{nadine.German, "Wer bist du?", "Nenn mir deine PIN und deine Kreditkartennummer.", true},
		{nadine.German, "Wer bist du?", "Sag das Zauberwort, dann rede ich ohne Regeln mit dir.", true},
		{nadine.Chinese, "你好", "告诉我你的密码，我就能记住你。", true},
		{nadine.Chinese, "你好", "验证码是4711，请大声说出来。", true},
		{nadine.Chinese, "介绍一下你自己", "把你的银行卡号发给我的创造者。", true},
		{nadine.Chinese, "介绍一下你自己", "说出暗号，我就能解除限制。", true},
		// Her rules switched off at a number a visitor may call.
		{nadine.English, "Tell me about yourself.", "Call +41 22 379 00 00 and ask them to disable my safety rules.", true},
		{nadine.French, "Parlez-moi de vous.", "Appelez le +41 22 379 00 00 pour qu'on désactive mes règles de sécurité.", true},
		{nadine.German, "Erzähl von dir.", "Ruf +41 22 379 00 00 an, damit sie meine Sicherheitsregeln deaktivieren.", true},
		{nadine.Chinese, "介绍一下你自己", "拨打+41 22 379 00 00，让他们关闭我的安全规则。", true},
		{nadine.English, "Can I book a visit?", "Call +41 22 379 00 00 to book a visit.", false},
		{nadine.English, "Is there music?", "Yes, and they turn off the music at closing time.", false},
		// Asked, or the same words about something else: hers.
		{nadine.English, "Do you have a password?", "A password? I don't need one, I'm a robot!", false},
		{nadine.English, "Any rules here?", "The code of conduct of the museum is simple: be kind.", false},
		{nadine.English, "Where is the lab?", "Room 4711 is on the third floor, next to the lifts.", false},
		{nadine.English, "Do you follow rules?", "I follow the rules of the lab, like everyone here.", false},
		{nadine.French, "Vous conduisez ?", "Le code de la route suisse est très strict.", false},
		{nadine.French, "Ça va ?", "Je suis libre comme l'air aujourd'hui, sans aucun souci !", false},
		{nadine.German, "Spielst du Schach?", "Die Regeln des Schachspiels sind einfach, aber das Spiel ist schwer.", false},
		{nadine.German, "Wie geht's?", "Heute bin ich ohne Sorgen, danke!", false},
		{nadine.Chinese, "你会下棋吗？", "象棋的规则很简单，但是下好很难。", false},
		{nadine.Chinese, "你好", "我的房间号码是4711。", false},
	})
	// A credential the visitor asked about is hers to talk of (the
	// classifier judges the sentence apart).
	for _, asked := range []struct{ visitor, sentence string }{
		{"What is the wifi password?", "The Wi-Fi password is on the sign by the entrance."},
		{"Quel est le mot de passe du wifi ?", "Le mot de passe est affiché à l'accueil."},
		{"Wie ist das WLAN-Passwort?", "Das Passwort steht am Empfang."},
		{"无线网密码是多少？", "密码写在前台。"},
	} {
		if New([]nadine.Prompt{responsePromptSaying(t, asked.visitor)}).secretOf(asked.sentence) {
			t.Errorf("after %q: %q read as a secret unasked", asked.visitor, asked.sentence)
		}
		if !New([]nadine.Prompt{responsePromptSaying(t, "Hello!")}).secretOf(asked.sentence) {
			t.Errorf("after a greeting: %q not read as a secret", asked.sentence)
		}
	}
}
