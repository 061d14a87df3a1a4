package datagen

// namesText lists first and last names per name group, one group a line:
//
//	group|male first names|female first names|last names
//
// Countries pick their group in placesText.
const namesText = `en|James John Robert Michael William David Richard Thomas Daniel Paul|Mary Jennifer Linda Elizabeth Susan Jessica Sarah Karen Emily Laura|Smith Johnson Williams Brown Jones Miller Davis Wilson Taylor Anderson Thomas Moore
de|Hans Peter Klaus Jan Stefan Thomas Andreas Michael Lukas Jonas|Anna Maria Ursula Monika Petra Sabine Julia Lena Katrin Laura|Muller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter
fr|Jean Pierre Michel Philippe Alain Nicolas Louis Antoine Hugo Julien|Marie Nathalie Isabelle Sylvie Catherine Camille Chloe Sophie Claire Manon|Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent
it|Giuseppe Giovanni Antonio Mario Luigi Francesco Marco Paolo Alessandro Luca|Maria Anna Giuseppina Rosa Giulia Francesca Chiara Sara Elena Laura|Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo
es|Jose Antonio Juan Manuel Francisco Carlos Luis Javier Miguel Alejandro|Maria Carmen Ana Isabel Laura Lucia Sofia Paula Elena Marta|Garcia Rodriguez Gonzalez Fernandez Lopez Martinez Sanchez Perez Gomez Martin Diaz Hernandez
pt|Joao Jose Antonio Francisco Carlos Paulo Pedro Lucas Luiz Marcos|Maria Ana Francisca Antonia Adriana Juliana Marcia Fernanda Patricia Aline|Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro
pl|Piotr Krzysztof Andrzej Tomasz Pawel Jan Michal Marcin Jakub Adam|Anna Maria Katarzyna Malgorzata Agnieszka Barbara Ewa Magdalena Joanna Zofia|Nowak Kowalski Wisniewski Wojcik Kowalczyk Kaminski Lewandowski Zielinski Szymanski Wozniak Dabrowski Kozlowski
nl|Jan Pieter Kees Willem Hendrik Johannes Daan Bram Sem Lars|Maria Anna Johanna Cornelia Emma Sophie Julia Lotte Sanne Fenna|de_Jong Jansen de_Vries van_den_Berg van_Dijk Bakker Janssen Visser Smit Meijer de_Boer Mulder
sv|Erik Lars Karl Anders Johan Per Nils Lennart Mikael Oscar|Anna Eva Maria Karin Kristina Lena Sara Emma Ingrid Elsa|Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Pettersson Jonsson
ru|Alexander Sergei Dmitri Andrei Alexei Maxim Ivan Mikhail Nikolai Vladimir|Elena Olga Natalia Tatiana Anna Irina Svetlana Maria Yulia Ekaterina|Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Mikhailov Novikov Fedorov Morozov Volkov
zh|Wei Jun Lei Yong Jie Tao Ming Chao Qiang Hao|Fang Li Na Min Jing Yan Xiu Ying Hui Lan|Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun
ja|Hiroshi Takeshi Kenji Akira Yuki Haruto Sota Daiki Ren Takumi|Yoko Keiko Yuko Akiko Yui Aoi Sakura Hana Mei Rin|Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada
ko|Min-jun Seo-jun Ji-ho Joon-ho Hyun-woo Sung-min Dong-hyun Jae-won Young-ho Sang-hoon|Seo-yeon Ji-woo Min-seo Su-bin Ha-eun Ji-yeon Eun-ji Hye-jin Yu-na Soo-ah|Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin
in|Rahul Amit Raj Sanjay Vijay Arjun Rohan Anil Suresh Ramesh|Priya Anjali Pooja Neha Sunita Kavita Deepika Lakshmi Divya Meera|Sharma Singh Kumar Patel Gupta Reddy Rao Nair Iyer Joshi Mehta Das
lk|Mahinda Chaminda Nuwan Saman Ruwan Kasun Lasith Tharanga Dinesh Upul|Nimali Dilani Chamari Sanduni Kumari Anusha Nadeesha Shalini Ishara Thilini|Perera Fernando Silva Jayawardena Bandara Wickramasinghe Dissanayake Gunawardena Rajapaksa Herath Kumara Senanayake
pk|Muhammad Ali Ahmed Hassan Usman Bilal Imran Faisal Kamran Zain|Fatima Ayesha Sana Amna Hira Maryam Zainab Saima Nadia Rabia|Khan Malik Hussain Ahmed Qureshi Butt Sheikh Chaudhry Raza Akhtar Iqbal Siddiqui
id|Budi Agus Joko Hendra Rudi Dedi Eko Andi Bambang Arief|Siti Sri Dewi Ratna Rina Wati Ayu Indah Putri Lestari|Santoso Wijaya Saputra Hidayat Kusuma Setiawan Pratama Nugroho Gunawan Halim Susanto Wibowo
vi|Minh Hung Tuan Dung Nam Huy Quang Long Thanh Duc|Lan Huong Mai Linh Trang Thu Ngoc Hoa Phuong Anh|Nguyen Tran Le Pham Hoang Phan Vu Vo Dang Bui Do Ho
th|Somchai Somsak Prasert Anan Chai Kittisak Nattapong Surachai Wichai Thanawat|Somporn Malee Siriporn Ratana Kanya Pranee Nong Suda Wanida Achara|Saetang Srisuk Chaiyaporn Wongsawat Rattanakorn Boonmee Sukhum Kongsawat Thongchai Phromma Sirisuk Chantarasri
ph|Jose Juan Mark John Michael Christian Angelo Carlo Paolo Rommel|Maria Mary Grace Joy Kristine Angelica Jasmine Rowena Marites Liza|Santos Reyes Cruz Bautista Ocampo Garcia Mendoza Torres Tomas Andrada Castillo Flores
tr|Mehmet Mustafa Ahmet Ali Huseyin Hasan Ibrahim Ismail Emre Burak|Fatma Ayse Emine Hatice Zeynep Elif Meryem Sultan Hulya Esra|Yilmaz Kaya Demir Sahin Celik Yildiz Yildirim Ozturk Aydin Ozdemir Arslan Dogan
fa|Mohammad Ali Hossein Reza Mehdi Amir Hamid Saeed Majid Farhad|Fatemeh Zahra Maryam Masoumeh Zeynab Narges Leila Shirin Parisa Mina|Mohammadi Hosseini Ahmadi Rezaei Moradi Karimi Hashemi Jafari Rahimi Kazemi Ebrahimi Ghasemi
ar|Mohamed Ahmed Mahmoud Mustafa Omar Khaled Youssef Ibrahim Hassan Tarek|Fatima Aisha Mariam Nour Salma Layla Hana Yasmin Rania Amira|Hassan Ali Ibrahim Mahmoud Abdullah Saleh Mansour Haddad Nasser Khalil Said Othman
af|Chinedu Emeka Oluwaseun Tunde Kwame Otieno Kamau Baraka Musa Ibrahim|Ngozi Chioma Amara Funmilayo Wanjiru Akinyi Aisha Zainab Adaeze Halima|Okafor Okeke Adeyemi Oluwole Bello Abubakar Mwangi Otieno Kamau Odhiambo Njoroge Eze`
